echo Error: GAMSCMEX did not write a next script.

exit 16
