"""What the desktop app keeps on the workstation: conversations, settings, credentials (no Qt here)."""
