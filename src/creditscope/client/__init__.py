"""HTTP client layer: talks to the service, knows money, never imports Textual."""
