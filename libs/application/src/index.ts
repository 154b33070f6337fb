// Public surface of @app/application.
