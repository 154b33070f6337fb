// Public surface of @app/vault.
