"""Tests for the Nines project."""
