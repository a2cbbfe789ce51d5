// butterfly-lda: train, inspect and apply LDA topic models with the butterfly sampler.
#include "program.hpp"

int main(int argc, char** argv) { return butterfly::app::run_program(argc, argv, {}); }
