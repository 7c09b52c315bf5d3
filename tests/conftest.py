pytest_plugins = ["tests.fakediscord.fixtures", "tests.lamabot"]
