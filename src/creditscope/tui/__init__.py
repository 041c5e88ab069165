"""The Textual explorer."""
