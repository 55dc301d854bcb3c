"""Failures as RFC 9457 problem details, with their text in the reader's language."""
