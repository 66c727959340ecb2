// libFuzzer target for the session loader. Any bytes go through
// TranscriptFile::parse(), both ways (and the OpenAI import, which shares its checks):
// the answer must be a transcript or an error sentence, never a crash, a hang
// or a sanitizer report. What loads must save and load again to an equal
// transcript and the same bytes. Run it with tests/fuzz/run-fuzzer.sh.

#include "agent/transcript/transcript.h"
#include "agent/transcript/transcriptimport.h"

#include <cstdint>
#include <cstdlib>

using namespace Loopscope;

namespace {

void check(const TranscriptLoadResult &result)
{
    if (result.transcript.has_value() == !result.error.isEmpty())
        std::abort(); // a transcript and an error, or neither
    if (!result.transcript)
        return;
    const QByteArray saved = TranscriptFile::serialize(*result.transcript);
    const TranscriptLoadResult again = TranscriptFile::parse(saved);
    if (!again.transcript || again.upgradedFrom != 0 || *again.transcript != *result.transcript
        || TranscriptFile::serialize(*again.transcript) != saved)
        std::abort(); // a session that does not reopen as it was saved
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const TranscriptLoadResult checked = TranscriptFile::parse(bytes);
    check(checked);
    // Opening it in the window (the fast reader) loads it too, or refuses it with the same words.
    const TranscriptLoadResult opened = TranscriptFile::parse(bytes, TranscriptFile::TraceForm::ForestOnly);
    if (opened.error != checked.error || opened.transcript.has_value() != checked.transcript.has_value())
        std::abort();
    check(TranscriptImport::fromOpenAiMessages(bytes, QDateTime(QDate(2024, 1, 1), QTime(0, 0), Qt::UTC)));
    return 0;
}
