import Wardrobe
print("wardrobe: under construction")
