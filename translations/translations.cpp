#include "translations/translations.h"

#include <QCoreApplication>
#include <QLocale>
#include <QTranslator>

using namespace Qt::StringLiterals;

namespace Loopscope::Translations {

namespace {

// lupdate's own C++ parser does not follow `namespace Loopscope::Ui {`, so
// the .ts files name a context by its class alone ("SessionLibraryPanel"),
// while tr() asks with the qualified name ("Loopscope::Ui::SessionLibraryPanel").
// Lookups fall back to the class name.
class ClassNameTranslator final : public QTranslator
{
public:
    using QTranslator::QTranslator;

    QString translate(const char *context, const char *sourceText, const char *disambiguation,
                      int n) const override
    {
        QString found = QTranslator::translate(context, sourceText, disambiguation, n);
        if (!found.isNull() || !context)
            return found;
        const QByteArrayView qualified(context);
        const qsizetype colons = qualified.lastIndexOf("::");
        if (colons < 0)
            return found;
        const QByteArray className = qualified.sliced(colons + 2).toByteArray();
        return QTranslator::translate(className.constData(), sourceText, disambiguation, n);
    }
};

} // namespace

void install()
{
    auto *app = QCoreApplication::instance();
    Q_ASSERT(app);
    auto *translator = new ClassNameTranslator(app);
    const QString folder = u":/i18n"_s;
    if (translator->load(QLocale(), u"loopscope"_s, u"_"_s, folder)
        || translator->load(u"loopscope_en"_s, folder)) {
        QCoreApplication::installTranslator(translator);
    } else {
        delete translator;
    }
}

} // namespace Loopscope::Translations
