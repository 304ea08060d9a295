from missions.fastpath import main

main()
