"""splitchat: private chat with a language model split across a trust boundary."""

__version__ = "0.1.0"
