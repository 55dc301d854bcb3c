"""HTTP and GraphQL adapters and the composition root. Translates; never decides a rule."""
