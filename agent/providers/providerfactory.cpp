#include "agent/providers/providerfactory.h"

#include "agent/providers/anthropicprotocol.h"
#include "agent/providers/geminiprotocol.h"
#include "agent/providers/ollamaprotocol.h"
#include "agent/providers/openaiprotocol.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

std::unique_ptr<ProviderProtocol> createProviderProtocol(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::OpenAi: return std::make_unique<OpenAiProtocol>();
    case ProviderKind::Anthropic: return std::make_unique<AnthropicProtocol>();
    case ProviderKind::Gemini: return std::make_unique<GeminiProtocol>();
    case ProviderKind::Ollama: return std::make_unique<OllamaProtocol>();
    }
    return nullptr;
}

QString defaultApiKeyEnv(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::OpenAi: return u"OPENAI_API_KEY"_s;
    case ProviderKind::Anthropic: return u"ANTHROPIC_API_KEY"_s;
    case ProviderKind::Gemini: return u"GEMINI_API_KEY"_s;
    case ProviderKind::Ollama: return {};
    }
    return {};
}

} // namespace Loopscope
