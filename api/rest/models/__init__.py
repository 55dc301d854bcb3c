"""Request and response models of the REST API (separate from domain objects and tables), one module per
resource as the routers."""
