// Public surface of @app/providers.
