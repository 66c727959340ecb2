#pragma once

#include "agent/config/providerprofile.h"
#include "agent/knowledge/knowledgelibrary.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    A new knowledge base: its name, its folders and files (chosen in file
    dialogs), and optionally the model that embeds its passages, from one of
    the user's provider profiles (the providers `loopscope knowledge add`
    offers: not Anthropic, which has no embeddings). The key is never copied:
    the base names the environment variable the profile reads it from.
*/
class KnowledgeBaseDialog final : public QDialog
{
    Q_OBJECT

public:
    KnowledgeBaseDialog(const QList<ProviderProfile> &profiles, QWidget *parent = nullptr);

    KnowledgeBaseDefinition definition() const;
    void setName(const QString &name);
    // What the folder and file dialogs add; a path already listed is not listed twice.
    void addPaths(const QStringList &paths);
    // Empty when the base can be added; else what to fix.
    QString validationError() const;
    QComboBox *embeddingProviderCombo() const { return m_embeddingProvider; }
    QLineEdit *embeddingModelEdit() const { return m_embeddingModel; }

    void accept() override;

private:
    void chooseFolder();
    void chooseFiles();
    void removeSelectedPath();
    void updateEmbedding();

    QList<ProviderProfile> m_profiles; // those with embeddings, in the combo's order after "None"
    QLineEdit *m_name;
    QListWidget *m_paths;
    QPushButton *m_removePath;
    QComboBox *m_embeddingProvider;
    QLineEdit *m_embeddingModel;
    QLabel *m_embeddingNote;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

} // namespace Loopscope::Ui
