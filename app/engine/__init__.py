"""The trusted half and everything model-side. Never imports Qt."""
