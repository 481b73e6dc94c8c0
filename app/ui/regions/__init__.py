"""Region widgets: each owns a part of the main screen, its state and its workflows, and pushes
the modal screens those need (so they sit above threadbench.ui.screens and threadbench.ui.widgets)."""
