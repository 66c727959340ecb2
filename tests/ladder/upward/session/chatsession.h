#pragma once

#include "agent/conversation/message.h"
