from modelarts_kit.main import cli

cli()
