"""The support desk: import a pasted request, and run a list of requests at a known price.

Pure modules (no Textual, no printing) shared by the CLI (``call --from-curl``,
``batch``) and the explorer (Import request).
"""
