"""The assistant: model providers, the streaming client, the agent loop and chat history (headless)."""
