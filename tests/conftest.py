"""Shared test settings: hypothesis without deadlines (the machine is shared and noisy)."""

from hypothesis import settings

settings.register_profile("project", deadline=None, max_examples=60)
settings.load_profile("project")
