"""One module per chapter: the figures, tables and plots its pages show, per locale."""
