#pragma once

#include <QString>

namespace Loopscope {

/*!
    Which models are known to read text only. A request with an image to one of them would come back
    as a provider's 400 (or, from Ollama, an answer that ignores the image): Loopscope says so before
    sending instead, and the user may send anyway. The list names the families their providers
    document as text-only; every other model is taken to read images, and its provider has the
    last word.
*/
namespace ModelImages {

// True when \a model (as \a provider, a ProviderKind name, serves it) is known to take no images.
bool knownTextOnly(const QString &provider, const QString &model);

} // namespace ModelImages

} // namespace Loopscope
