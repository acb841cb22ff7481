"""Tournaments run by the bot in a server: Swiss rounds at tables of three or four (issue 48).

pairing.py: who sits at which table and in which seat (pure); standings.py: points, tie-breaks
and duplicate matchpoints (pure).
"""
