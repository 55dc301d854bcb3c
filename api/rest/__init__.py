"""REST adapters: one router per resource, their request and response models, the pre-resolved submit
and conditional reads."""
