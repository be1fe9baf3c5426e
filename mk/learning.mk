# bench-learning: how the loop learns, two ways.
#
# 1. A person's corrections, reviewed three ways (bench/learning/review_bench.py): the bench
#    parent, Models/bench-parent.aimodel, classifies the training photos it never learned from
#    (SHA-256 from 0x80 up), a person reviews 200 at random (confirming and correcting), 300 at
#    random (correcting only the wrong ones) or 200 of the one-label folders, and plain
#    `model train --corrections` fine-tunes it; each model is scored on the validation photos per
#    folder and on the imported photos nobody reviewed (labels fixed, labels broken), at the
#    seeds of REVIEW_SEEDS. Tables in bench/out/learning/review.md. About 11 minutes on 2 quiet cores.
# 2. The learning curve (bench/learning_curve.py): from Models/fashion-mnist-only.aimodel,
#    fine-tune on the first 0, 50, 100, 200, 400 and all mapped training photos (by file hash),
#    evaluate each on the validation photos, and write bench/out/learning/learning-curve.svg.
#    LEARNING_COUNTS and LEARNING_TRAIN_ARGS change the counts and the schedule, e.g. a
#    two-minute check: make bench-learning-curve LEARNING_COUNTS="0 50" LEARNING_TRAIN_ARGS="--fashion 500 --epochs 1"
#
# The bench parent is made once by `make bench-parent` (make model's recipe on the training
# photos whose SHA-256 starts below 0x80, outwear left out: a kind it never learns from a photo,
# as blazers were for the bundled model) and kept in Models/ with its rehearsal file.
LEARNING_COUNTS     ?= 0 50 100 200 400 all
LEARNING_TRAIN_ARGS ?= --fashion 5000 --photo-share 0.5 --epochs 4 --learning-rate 0.02
REVIEW_SEEDS        ?= 1 2
LEARNING_SPLIT      := bench/out/learning/split

.PHONY: bench-learning bench-learning-review bench-learning-curve bench-parent learning-split
BENCHES += bench-learning

bench-learning: bench-learning-review bench-learning-curve

learning-split:
	@if [ ! -d "$(TRAIN_PHOTOS)" ]; then echo "bench-learning: $(TRAIN_PHOTOS) not found"; exit 1; fi
	@if [ ! -d "$(LEARNING_SPLIT)/person" ]; then \
	  python3 bench/learning/split_photos.py --train "$(TRAIN_PHOTOS)" --out $(LEARNING_SPLIT) \
	    --shoe-labels Models/shoe-labels.tsv; fi

bench-learning-review: build learning-split
	rm -f bench/out/learning/person.sqlite*
	python3 bench/learning/review_bench.py --wardrobe $(WARDROBE) --person $(LEARNING_SPLIT)/person \
	  --seeds "$(REVIEW_SEEDS)"

bench-learning-curve: build
	python3 bench/learning_curve.py --wardrobe $(WARDROBE) --counts "$(LEARNING_COUNTS)" \
	  --train-args "$(LEARNING_TRAIN_ARGS)"

bench-parent: build learning-split
	$(MAKE) model TRAIN_PHOTOS=$(LEARNING_SPLIT)/parent MODEL_MAP=bench/bench-parent.map \
	  MODEL_OUT=Models/bench-parent.aimodel MODEL_NAME=bench-parent \
	  SHOE_LABELS=$(LEARNING_SPLIT)/parent-shoe-labels.tsv MODEL_DB=$(LEARNING_SPLIT)/parent-shoes.sqlite
