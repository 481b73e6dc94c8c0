"""Region widgets: each owns a part of the main screen, its state and its workflows, and pushes
the modal screens those need (so they sit above app.ui.screens and app.ui.widgets)."""
