from modelarts_kit.entry import main

main()
