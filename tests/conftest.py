pytest_plugins = ["tests.fakediscord.fixtures"]
