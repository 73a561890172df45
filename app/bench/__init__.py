"""``splitchat bench``: decoding over an emulated WAN, the load on one worker, and what they mean."""
