#include "providerfactory.h"

#include "providers/anthropicprotocol.h"
#include "providers/geminiprotocol.h"
#include "providers/ollamaprotocol.h"
#include "providers/openaiprotocol.h"

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
