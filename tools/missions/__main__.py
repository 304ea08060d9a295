from missions.cli import main

main()
