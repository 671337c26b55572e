"""Rating algorithms (pure Python); the Django models and services live beside."""
