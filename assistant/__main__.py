from .cli.fast import main

main()
