//! Scalar reference GJK/EPA.
