"""The GraphQL API, one module per resource (as the REST routers): the same queries and mutations
as REST, plus the ``gameEvents`` subscription. ``api.graphql.schema`` assembles the root types."""
