# Sourced by tune.sh and fresh.sh: TALL_MIX, the override listing each tall object (cracker box, mustard
# bottle, sugar box) three times and the eleven other types once (`skill.object_types`: 9 of 20 entries).
T=cracker_box,mustard_bottle,sugar_box
OTHERS=tomato_soup_can,master_chef_can,potted_meat_can,gelatin_box,bowl,mug,apple,orange,lemon,banana,plate
TALL_MIX="skill.object_types=[$T,$T,$T,$OTHERS]"
