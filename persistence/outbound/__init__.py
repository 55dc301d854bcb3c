"""Outbound adapters: requests this service makes to others (webhook deliveries)."""
