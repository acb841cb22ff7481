"""Discord cogs: slash commands and buttons mapped onto the game sessions."""
