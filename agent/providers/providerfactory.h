#pragma once

#include "agent/providers/providerkind.h"
#include "agent/providers/providerprotocol.h"

#include <memory>

namespace Loopscope {

/*! The wire protocol that serves a kind of provider profile. */
std::unique_ptr<ProviderProtocol> createProviderProtocol(ProviderKind kind);

/*! The conventional environment variable for a provider's key, e.g. OPENAI_API_KEY. */
QString defaultApiKeyEnv(ProviderKind kind);

} // namespace Loopscope
