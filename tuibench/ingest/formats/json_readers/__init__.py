"""Readers of producers' JSON documents, one module per producer."""
