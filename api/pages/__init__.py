"""Pages served to browsers: the web client, the API documentation and the sign-in QR code."""
