"""What every request crosses before a router: middleware, CORS, HEAD, rate limits, input limits,
metrics and logs."""
