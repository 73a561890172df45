"""How the workstation reaches the middle layers: in process, over the wire, or on a loopback worker."""
