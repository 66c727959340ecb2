#pragma once

#include "agent/config/providerprofile.h"
