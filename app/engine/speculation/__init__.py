"""What each round trip drafts: context lookup, the Jacobi window, the learned head, and the controller."""
