# bench-learning: the learning curve of the loop. From Models/fashion-mnist-only.aimodel,
# fine-tune on the first 0, 50, 100, 200, 400 and all mapped training photos (a fixed
# shuffled order: by file hash), evaluate each on the validation photos, print a table
# and write bench/out/learning/learning-curve.svg. At most 30 minutes on 2 quiet cores.
# LEARNING_COUNTS and LEARNING_TRAIN_ARGS change the counts and the schedule, e.g. a
# two-minute check: make bench-learning LEARNING_COUNTS="0 50" LEARNING_TRAIN_ARGS="--fashion 500 --epochs 1"
LEARNING_COUNTS     ?= 0 50 100 200 400 all
LEARNING_TRAIN_ARGS ?= --fashion 5000 --photo-share 0.5 --epochs 4 --learning-rate 0.02

.PHONY: bench-learning
BENCHES += bench-learning

bench-learning: build
	python3 bench/learning_curve.py --wardrobe $(WARDROBE) --counts "$(LEARNING_COUNTS)" \
	  --train-args "$(LEARNING_TRAIN_ARGS)"
