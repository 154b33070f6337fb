// Public surface of @app/persistence.
