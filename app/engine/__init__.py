"""The trusted half: where the model comes from, the decode loop, speculation, the link to the worker. No Qt."""
