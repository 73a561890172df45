"""``splitchat privacy``: how much of the text the hidden states on the wire give away, measured."""
