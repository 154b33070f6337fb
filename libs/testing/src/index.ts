// Public surface of @app/testing.
