// Public surface of @app/notifications.
